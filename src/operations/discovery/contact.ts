/** The address people and agents write to about this service (agent index, plugin manifest, legal pages). */
export const CONTACT_EMAIL = 'agents@megachad.xyz'
