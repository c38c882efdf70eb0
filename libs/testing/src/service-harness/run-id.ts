import { randomBytes } from 'node:crypto';

/** Short and random: names, ids and consumer groups of one test run that cannot meet older data. */
export const newRunId = (): string => randomBytes(4).toString('hex');
