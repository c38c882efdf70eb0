import en from '../../locales/en/landing.json';
import ru from '../../locales/ru/landing.json';
import { addNamespace } from '../add-namespace';

addNamespace('landing', { ru, en });
