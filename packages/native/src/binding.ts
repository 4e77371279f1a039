import { load } from './loader.js';

export type { Binding } from './loader.js';

/** The addon for this thread. */
export const binding = load();
