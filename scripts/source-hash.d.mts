export declare const root: string
export declare const srcDir: string
export declare const distDir: string
export declare const hashFile: string
export declare function files(dir: string): string[]
export declare const isTest: (file: string) => boolean
export declare function sourceHash(): string
export declare function isBuilt(): boolean
export declare function importBuiltOrSource(compiled: string, source: string, onSource?: () => void): Promise<any>
