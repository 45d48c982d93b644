import { createLocalIpfsStore } from "./local-store.js";
import { createPinataPinner } from "./pinata.js";
import { createKuboPinner } from "./kubo.js";
export function createIpfsPinner(config) {
    switch (config.kind) {
        case 'local':
            return createLocalIpfsStore(config);
        case 'pinata':
            return createPinataPinner(config);
        case 'kubo':
            return createKuboPinner(config);
    }
}
//# sourceMappingURL=index.js.map