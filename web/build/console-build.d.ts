// Types of console-build.js (plain JavaScript, so `npm start` runs it with node alone).
export declare const HASH_FILE: string;
export declare function consoleSourceHash(root: string): string;
export declare function buildConsole(options: { root: string; outDir: string; ifChanged: boolean; build: () => Promise<void> }): Promise<{ built: boolean; hash: string }>;
