import { TokensScreen } from '../../features/tokens/components/tokens-screen';

export function TokensPage() {
  return <TokensScreen />;
}
