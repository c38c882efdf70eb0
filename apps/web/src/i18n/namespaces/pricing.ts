import en from '../../locales/en/pricing.json';
import ru from '../../locales/ru/pricing.json';
import { addNamespace } from '../add-namespace';

addNamespace('pricing', { ru, en });
