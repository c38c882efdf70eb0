import { Outlet } from 'react-router-dom';
import { LanguageSwitch } from '../components/language-switch';
import { BrandLink } from './brand-link';
import { PageSuspense } from '../../../ui/page-suspense';

/** For desktop pages outside the site frame (/login): just the brand and the language switch. */
export function BareLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between px-4 lg:px-8">
        <BrandLink />
        <LanguageSwitch />
      </header>
      <main className="flex flex-1 flex-col">
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
    </div>
  );
}
