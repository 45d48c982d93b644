import { getAbiItem, parseAbi } from 'viem';
/** The EIP-3009 surface of the USDm forwarder (the x402 `asset`). */
export const eip3009Abi = parseAbi([
    'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
    'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
    'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
    'function name() view returns (string)',
    'function version() view returns (string)',
    'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
    'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
    'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
]);
export const authorizationUsedEvent = getAbiItem({ abi: eip3009Abi, name: 'AuthorizationUsed' });
export const authorizationCanceledEvent = getAbiItem({ abi: eip3009Abi, name: 'AuthorizationCanceled' });
export const transferWithAuthorizationTypes = {
    TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
    ],
};
//# sourceMappingURL=eip3009.js.map