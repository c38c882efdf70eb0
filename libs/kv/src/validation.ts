/**
 * Argument checks shared by both adapters, so a bad call fails the same way whichever store
 * is configured (and before a Lua script could turn a fraction into a silent rounding).
 */

export function assertDuration(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer number of milliseconds, got ${value}`);
  }
}

export function assertOptionalDelay(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer number of milliseconds, got ${value}`);
  }
}

export function assertAmount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

export function assertInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${name} must be an integer, got ${value}`);
  }
}

export function assertLimit(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be an integer of at least 1, got ${value}`);
  }
}

export function assertIdentifier(name: string, value: string): void {
  if (typeof value !== 'string' || value.length === 0) {
    throw new RangeError(`${name} must be a non-empty string`);
  }
}
