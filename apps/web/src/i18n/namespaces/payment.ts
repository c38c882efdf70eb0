import en from '../../locales/en/payment.json';
import ru from '../../locales/ru/payment.json';
import { addNamespace } from '../add-namespace';

addNamespace('payment', { ru, en });
