import '../../i18n/namespaces/settings';
import '../../i18n/namespaces/auth';
import { SettingsScreen } from '../../features/settings/components/settings-screen';

export function SettingsPage() {
  return <SettingsScreen />;
}
