import { SettingsScreen } from '../../features/settings/components/settings-screen';

export function SettingsPage() {
  return <SettingsScreen />;
}
