import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ROUTES, loginPath } from '../../../lib/routes';
import { tapTargetClass } from '../../../ui/styles';

const FEATURES = ['api', 'models', 'payment', 'vpn', 'privacy', 'control'] as const;
const REASONS = ['savings', 'prepaid', 'support'] as const;
const CORPORATE = ['channels', 'priority', 'contract', 'pilot'] as const;
const QUESTIONS = ['vpn', 'privacy', 'payment', 'code'] as const;

export function Hero() {
  const { t } = useTranslation('landing');
  return (
    <section className="bg-gradient-to-b from-indigo-50 to-slate-50 px-4 py-16 md:py-24">
      <div className="mx-auto flex max-w-4xl flex-col items-center gap-6 text-center">
        <span className="rounded-full bg-indigo-100 px-3 py-1 text-xs font-semibold text-indigo-700">
          {t('hero_badge')}
        </span>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 md:text-5xl">{t('hero_title')}</h1>
        <p className="max-w-2xl text-base text-slate-600 md:text-lg">{t('hero_text')}</p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link
            to={loginPath('register')}
            className="rounded-lg bg-indigo-600 px-6 py-3 font-semibold text-white hover:bg-indigo-700"
          >
            {t('hero_cta')}
          </Link>
          <a
            href="#features"
            className="rounded-lg border border-slate-300 bg-white px-6 py-3 font-semibold text-slate-700 hover:bg-slate-50"
          >
            {t('hero_secondary_cta')}
          </a>
        </div>
        <p className="text-sm font-medium text-emerald-700">{t('hero_savings')}</p>
      </div>
    </section>
  );
}

export function Features() {
  const { t } = useTranslation('landing');
  return (
    <section id="features" className="mx-auto max-w-6xl px-4 py-16">
      <h2 className="text-center text-2xl font-bold md:text-3xl">{t('features_title')}</h2>
      <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((feature) => (
          <article key={feature} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <h3 className="font-semibold text-slate-900">{t(`feature_${feature}_title`)}</h3>
            <p className="mt-2 text-sm text-slate-600">{t(`feature_${feature}_text`)}</p>
          </article>
        ))}
      </div>
    </section>
  );
}

export function WhyUs() {
  const { t } = useTranslation('landing');
  return (
    <section className="bg-white px-4 py-16">
      <div className="mx-auto max-w-6xl">
        <h2 className="text-center text-2xl font-bold md:text-3xl">{t('why_title')}</h2>
        <div className="mt-10 grid gap-6 md:grid-cols-3">
          {REASONS.map((reason) => (
            <div key={reason} className="rounded-xl bg-slate-50 p-6 text-center">
              <p className="text-2xl font-bold text-indigo-600">{t(`why_${reason}_value`)}</p>
              <p className="mt-2 text-sm text-slate-600">{t(`why_${reason}_text`)}</p>
            </div>
          ))}
        </div>
        <div className="mt-10 rounded-2xl bg-slate-900 p-8 text-white">
          <h3 className="text-xl font-semibold">{t('corporate_title')}</h3>
          <p className="mt-2 text-slate-300">{t('corporate_text')}</p>
          <ul className="mt-4 grid gap-2 sm:grid-cols-2">
            {CORPORATE.map((item) => (
              <li key={item} className="flex gap-2 text-sm">
                <span aria-hidden className="text-emerald-400">
                  ✓
                </span>
                {t(`corporate_${item}`)}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

export function Faq() {
  const { t } = useTranslation('landing');
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-16">
      <h2 className="text-center text-2xl font-bold md:text-3xl">{t('faq_title')}</h2>
      <div className="mt-8 flex flex-col gap-3">
        {QUESTIONS.map((question) => (
          <details key={question} className="group rounded-xl border border-slate-200 bg-white p-4">
            <summary className="cursor-pointer font-medium text-slate-900">
              {t(`faq_${question}_question`)}
            </summary>
            <p className="mt-2 text-sm text-slate-600">{t(`faq_${question}_answer`)}</p>
          </details>
        ))}
      </div>
    </section>
  );
}

export function Footer() {
  const { t } = useTranslation('landing');
  return (
    <footer className="border-t border-slate-200 bg-white px-4 py-8">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 text-sm text-slate-500 md:flex-row md:items-center md:justify-between">
        <div>
          <p>{t('footer_tagline')}</p>
          <p>{t('footer_copyright', { year: new Date().getFullYear() })}</p>
        </div>
        <nav className="flex flex-wrap gap-4">
          <Link to={ROUTES.privacy} className={`${tapTargetClass} hover:text-slate-800`}>
            {t('footer_privacy')}
          </Link>
          <Link to={ROUTES.terms} className={`${tapTargetClass} hover:text-slate-800`}>
            {t('footer_terms')}
          </Link>
          <Link to={ROUTES.offer} className={`${tapTargetClass} hover:text-slate-800`}>
            {t('footer_offer')}
          </Link>
          <Link to={ROUTES.about} className={`${tapTargetClass} hover:text-slate-800`}>
            {t('footer_about')}
          </Link>
          <Link to={ROUTES.changelog} className={`${tapTargetClass} hover:text-slate-800`}>
            {t('footer_changelog')}
          </Link>
          <Link to={ROUTES.status} className={`${tapTargetClass} hover:text-slate-800`}>
            {t('footer_status')}
          </Link>
        </nav>
      </div>
    </footer>
  );
}
