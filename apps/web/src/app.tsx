import { useEffect, useState } from 'react';
import type { Envelope, SystemStatus } from '@tollgate/contracts';

type StatusState =
  { kind: 'loading' } | { kind: 'ready'; status: SystemStatus } | { kind: 'error'; message: string };

/** Start page until the full web app lands: names the product and shows the live API address. */
export function App() {
  const [state, setState] = useState<StatusState>({ kind: 'loading' });

  useEffect(() => {
    fetch('/api/status', { credentials: 'include' })
      .then(async (res) => {
        const body = (await res.json()) as Envelope<SystemStatus>;
        if (!res.ok || !body.success || !body.data) throw new Error(body.message || `HTTP ${res.status}`);
        setState({ kind: 'ready', status: body.data });
      })
      .catch((err: unknown) =>
        setState({
          kind: 'error',
          message: err instanceof Error ? err.message : 'Failed to fetch system status',
        }),
      );
  }, []);

  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-6 p-8 font-sans text-slate-800">
      <h1 className="text-4xl font-semibold">Tollgate</h1>
      <p className="text-lg">
        Единый OpenAI-совместимый API к GPT, Claude, Gemini, DeepSeek и GLM. Оплата в рублях или долларах,
        тексты запросов не хранятся.
      </p>
      {state.kind === 'loading' && <p className="text-slate-500">…</p>}
      {state.kind === 'error' && (
        <p className="text-red-600">Failed to fetch system status: {state.message}</p>
      )}
      {state.kind === 'ready' && (
        <p>
          API: <code className="rounded bg-slate-100 px-2 py-1">{state.status.server_address}/v1</code>
        </p>
      )}
    </main>
  );
}
