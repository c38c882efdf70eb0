import en from '../../locales/en/admin.json';
import ru from '../../locales/ru/admin.json';
import { addNamespace } from '../add-namespace';

addNamespace('admin', { ru, en });
