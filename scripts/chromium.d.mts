export function findChromium(): Promise<{ path: string | undefined; source: 'CHROMIUM_PATH' | 'system' | 'playwright' } | null>;
export const chromiumArgs: string[];
