import { pgliteErrorMessage } from './pglite-instances';

describe('pgliteErrorMessage', () => {
  it("says what Emscripten's file system threw, a plain object rather than an Error", () => {
    expect(pgliteErrorMessage({ name: 'ErrnoError', errno: 54 })).toBe("{ name: 'ErrnoError', errno: 54 }");
  });

  it("is an Error's message", () => {
    expect(pgliteErrorMessage(new Error('PGlite failed to initialize properly'))).toBe(
      'PGlite failed to initialize properly',
    );
  });
});
