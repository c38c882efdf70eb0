import { useCallback, useEffect, useState } from 'react';

/** SPEC §4/§9: after a code is sent, sending again waits 60 seconds. */
export const CODE_COOLDOWN_SECONDS = 60;

/** Seconds left before the next send; `reset` puts it back to 0 (a failed send). */
export function useCooldown(seconds: number = CODE_COOLDOWN_SECONDS) {
  const [remaining, setRemaining] = useState(0);
  useEffect(() => {
    if (remaining <= 0) return;
    const tick = setTimeout(() => setRemaining((left) => left - 1), 1000);
    return () => clearTimeout(tick);
  }, [remaining]);
  const start = useCallback(() => setRemaining(seconds), [seconds]);
  const reset = useCallback(() => setRemaining(0), []);
  return { remaining, active: remaining > 0, start, reset };
}
