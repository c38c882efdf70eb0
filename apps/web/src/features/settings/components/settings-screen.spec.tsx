import { screen } from '@testing-library/react';
import {
  answerApi,
  aSignedInAccount,
  enabledStatus,
  ok,
  renderApp,
  startSignedIn,
} from '../../../../test/render-app';

describe('settings screen', () => {
  beforeEach(() => {
    startSignedIn();
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
