import '../../i18n/namespaces/tokens';
import { TokensScreen } from '../../features/tokens/components/tokens-screen';

export function TokensPage() {
  return <TokensScreen />;
}
