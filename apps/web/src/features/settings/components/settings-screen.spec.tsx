import { screen } from '@testing-library/react';
import { aSignedInAccount, answerApi, enabledStatus, ok, renderApp } from '../../../../test/render-app';
import { STORAGE_KEYS } from '../../../lib/local-storage-keys';

describe('settings screen', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.userId, '5');
    localStorage.setItem(STORAGE_KEYS.cookieConsent, 'accepted');
  });

  it("keeps the account tab's one phone column within the screen (the invite link does not widen it)", async () => {
    answerApi({
      '/api/status': ok(enabledStatus),
      '/api/user/self': ok(aSignedInAccount({ used_quota: 0, request_count: 0 })),
      '/api/user/aff': ok('a-long-invite-code-that-does-not-break'),
    });
    renderApp('/dashboard/settings', 'mobile');
    const grid = (await screen.findByRole('heading', { name: 'Приглашения' })).closest('.grid');
    // Tailwind's grid-cols-1 is minmax(0, 1fr); an implicit column is sized by its widest content (seen: 390 px phone, cards cut at the right).
    expect(grid?.className.split(' ')).toContain('grid-cols-1');
  });
});
