import { MOBILE_BOTTOM_BAR_PX, mobileBodyHeight } from './mobile-body-height';

describe('mobile body height', () => {
  it('is the visible viewport less the 72 px bottom bar', () => {
    expect(MOBILE_BOTTOM_BAR_PX).toBe(72);
    expect(mobileBodyHeight(844, '/')).toBe('772px');
    expect(mobileBodyHeight(500, '/price')).toBe('428px');
  });

  it('is left alone on /login', () => {
    expect(mobileBodyHeight(844, '/login')).toBe('');
  });
});
