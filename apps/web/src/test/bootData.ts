import { BOOT_DATA_ELEMENT_ID, type BootData } from '@vitrine/contract/boot';
import { forgetBootData } from '../lib/bootData.ts';

/** Puts boot data in the page as the server writes it (config/app-page.ts), read afresh by the app. */
export function carryBootData(data: BootData): void {
  removeBootData();
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = BOOT_DATA_ELEMENT_ID;
  element.textContent = JSON.stringify(data);
  document.head.appendChild(element);
  forgetBootData();
}

/** Takes the page's boot data away again. */
export function removeBootData(): void {
  document.getElementById(BOOT_DATA_ELEMENT_ID)?.remove();
  forgetBootData();
}
