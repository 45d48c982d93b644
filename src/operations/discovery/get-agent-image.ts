import { z } from 'zod'
import { defineOperation } from '../define.ts'
import { textAnswer, textDocument } from './text-answer.ts'

export const AGENT_IMAGE_PATH = '/agent-image.svg'

/** A plain badge, drawn here so the registration's `image` points at something this service serves. */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256" role="img" aria-label="MegaChad">
<rect width="256" height="256" rx="40" fill="#111"/>
<circle cx="128" cy="108" r="52" fill="#f5c542"/>
<text x="128" y="206" font-family="system-ui,sans-serif" font-size="30" font-weight="700" fill="#fff" text-anchor="middle">MegaChad</text>
</svg>
`

export const getAgentImage = defineOperation({
  id: 'get_agent_image',
  method: 'GET',
  path: AGENT_IMAGE_PATH,
  summary: 'Image of the service as an agent (SVG), named by its ERC-8004 registration',
  tags: ['discovery'],
  input: z.object({}),
  output: textDocument,
  errors: [],
  cacheSeconds: 86400,
  staleSeconds: 86400,
  mcp: { tool: 'get_discovery_document', as: 'agent_image' },
  uses: [],
  async handler() {
    return textAnswer(SVG, 'image/svg+xml')
  },
})
