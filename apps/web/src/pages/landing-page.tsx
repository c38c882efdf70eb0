import '../i18n/namespaces/landing';
import { Faq, Features, Footer, Hero, WhyUs } from '../features/landing/components/landing-sections';

export function LandingPage() {
  return (
    <>
      <Hero />
      <Features />
      <WhyUs />
      <Faq />
      <Footer />
    </>
  );
}
