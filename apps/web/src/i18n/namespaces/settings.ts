import en from '../../locales/en/settings.json';
import ru from '../../locales/ru/settings.json';
import { addNamespace } from '../add-namespace';

addNamespace('settings', { ru, en });
