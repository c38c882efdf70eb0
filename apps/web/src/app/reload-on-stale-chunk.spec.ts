import { reloadOnStaleChunk } from './reload-on-stale-chunk';

function fakeWindow() {
  const target = new EventTarget() as EventTarget & { location: { reload: jest.Mock } };
  target.location = { reload: jest.fn() };
  return target;
}

const preloadError = () => new Event('vite:preloadError', { cancelable: true });

describe('reload on a stale chunk', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => jest.useRealTimers());

  it('loads the new build when a page chunk of the old one is gone', () => {
    const target = fakeWindow();
    reloadOnStaleChunk(target as unknown as Window, sessionStorage);
    const event = preloadError();
    target.dispatchEvent(event);
    expect(target.location.reload).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
  });

  it('reloads at most once in 10 seconds, so a chunk missing from the new build cannot loop', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const target = fakeWindow();
    reloadOnStaleChunk(target as unknown as Window, sessionStorage);
    target.dispatchEvent(preloadError());
    jest.setSystemTime(1_005_000);
    const second = preloadError();
    target.dispatchEvent(second);
    expect(target.location.reload).toHaveBeenCalledTimes(1);
    expect(second.defaultPrevented).toBe(false);
    jest.setSystemTime(1_011_000);
    target.dispatchEvent(preloadError());
    expect(target.location.reload).toHaveBeenCalledTimes(2);
  });
});
