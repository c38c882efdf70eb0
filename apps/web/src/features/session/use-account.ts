import { useQuery } from '@tanstack/react-query';
import { selfQuery } from './session-api';
import { useIsSignedIn } from './user-id-store';

/** The signed-in account (balance included); disabled for a visitor. */
export function useAccount() {
  const signedIn = useIsSignedIn();
  return useQuery({ ...selfQuery, enabled: signedIn });
}
