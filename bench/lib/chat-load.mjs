// The non-streaming load every scenario drives through one function, whichever generator the run
// chose (`--load-generator`): wrk by default, k6 on request. Both return the same figures.
import * as k6 from './k6.mjs';
import * as wrk from './wrk.mjs';

const GENERATORS = {
  wrk: { runChatLoad: wrk.runChatLoad, version: wrk.wrkVersion },
  k6: { runChatLoad: k6.runChatLoad, version: k6.k6Version },
};

let chosen = 'wrk';

/** Chooses the generator for the rest of this process's loads. */
export function useLoadGenerator(name) {
  if (!(name in GENERATORS)) throw new Error(`unknown load generator ${name}`);
  chosen = name;
}

export const loadGeneratorVersion = () => GENERATORS[chosen].version();

/** One closed-loop run of non-streaming chat calls (see k6.mjs and wrk.mjs for the figures). */
export const runChatLoad = (target, load) => GENERATORS[chosen].runChatLoad(target, load);
