import type { IpfsPinner } from './port.ts'
import { createLocalIpfsStore } from './local-store.ts'
import { createPinataPinner } from './pinata.ts'
import { createKuboPinner } from './kubo.ts'

export type IpfsConfig =
  | { kind: 'local'; dir: string; publicBaseUrl: string }
  | { kind: 'pinata'; jwt: string; gatewayBaseUrl?: string; apiBaseUrl?: string }
  | { kind: 'kubo'; rpcUrl: string; gatewayBaseUrl: string }

export function createIpfsPinner(config: IpfsConfig): IpfsPinner {
  switch (config.kind) {
    case 'local':
      return createLocalIpfsStore(config)
    case 'pinata':
      return createPinataPinner(config)
    case 'kubo':
      return createKuboPinner(config)
  }
}
