import en from '../../locales/en/status_page.json';
import ru from '../../locales/ru/status_page.json';
import { addNamespace } from '../add-namespace';

addNamespace('status_page', { ru, en });
