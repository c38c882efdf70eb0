import { BalanceCard } from '../../features/dashboard/components/balance-card';
import { GreetingTitle } from '../../features/dashboard/components/greeting-title';
import { QuickLinks } from '../../features/dashboard/components/quick-links';
import { QuickStart } from '../../features/dashboard/components/quick-start';
import { UsageCard } from '../../features/dashboard/components/usage-card';

export function DashboardHomePage() {
  return (
    <>
      <GreetingTitle />
      <div className="grid gap-4 lg:grid-cols-3">
        <BalanceCard />
        <div className="lg:col-span-2">
          <UsageCard />
        </div>
      </div>
      <QuickStart />
      <QuickLinks />
    </>
  );
}
