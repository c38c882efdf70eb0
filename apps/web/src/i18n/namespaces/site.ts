import en from '../../locales/en/site.json';
import ru from '../../locales/ru/site.json';
import { addNamespace } from '../add-namespace';

addNamespace('site', { ru, en });
