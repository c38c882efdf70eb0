import '../../i18n/namespaces/activity';
import { ActivityScreen } from '../../features/activity/components/activity-screen';

export function ActivityPage() {
  return <ActivityScreen />;
}
