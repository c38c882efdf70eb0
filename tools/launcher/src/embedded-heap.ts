import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last full GC: 100 % (a factor of
 * 2). Left to itself V8 picks up to 4 for a large heap, and under load the platform's RSS grew to
 * 700–780 MB, mostly garbage that one full GC freed; with this 580–590 MB, at no CPU per call that
 * the shared machine could tell from its noise (bench/ANALYSIS.md, "Embedded memory").
 */
const HEAP_GROWING_PERCENT = 100;

/**
 * Tunes V8's heap for the embedded platform, which has the process to itself. The flag is read at
 * every full GC, so setting it after start-up works (unlike the heap's size limits).
 */
export function tuneEmbeddedHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
