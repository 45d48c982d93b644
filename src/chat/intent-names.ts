import { AGENT_INTENTS } from '../operations/agent/intents.ts'

/** The intents chat understands: those the agent index announces, in its order. */
export const INTENTS = AGENT_INTENTS
export type Intent = (typeof AGENT_INTENTS)[number]
