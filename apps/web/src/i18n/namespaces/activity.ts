import en from '../../locales/en/activity.json';
import ru from '../../locales/ru/activity.json';
import { addNamespace } from '../add-namespace';

addNamespace('activity', { ru, en });
