export declare const MALLOC_ENV: Record<string, string>;
