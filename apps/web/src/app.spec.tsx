import { render, screen, waitFor } from '@testing-library/react';
import { App } from './app';

/** jsdom has no fetch: each test answers /api/status itself. */
function answerStatus(status: number, body: unknown): void {
  globalThis.fetch = jest.fn().mockResolvedValue({ ok: status < 400, status, json: async () => body });
}

describe('start page', () => {
  it('shows the API address the status reports', async () => {
    answerStatus(200, { success: true, message: '', data: { server_address: 'https://api.example' } });
    render(<App />);
    await waitFor(() => expect(screen.getByText('https://api.example/v1')).toBeInTheDocument());
  });

  it('says when the status cannot be fetched', async () => {
    answerStatus(502, { success: false, message: 'down' });
    render(<App />);
    await waitFor(() => expect(screen.getByText(/Failed to fetch system status: down/)).toBeInTheDocument());
  });
});
