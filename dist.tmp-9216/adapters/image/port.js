export {};
//# sourceMappingURL=port.js.map