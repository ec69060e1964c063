/**
 * The consent gate (`consent.ts`): until the reader accepts, no panel code, collector or preload
 * loads. The reader's choice is the remembered acceptance (read in the browser; undefined until
 * then), an accept, or a withdrawal (`false`, which gates even a widget without the `consent`
 * option); the host decides instead with `granted`. Withdrawn, everything the widget stored goes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConsentOptions } from './consent.js';
import { consentKey, readConsent, rememberConsent } from './consent.js';
import { consentView, forgetPanelMemory } from './panel-loader.js';

export function useConsentGate(
  consent: boolean | ConsentOptions | undefined,
  domain: string,
  storage: unknown,
) {
  const options = consent === true ? {} : consent || undefined;
  const storageKey = consentKey(domain, options);
  const controlled = options?.granted;
  const [choice, setChoice] = useState<boolean>();
  const gated = (!!options && options.required !== false) || choice === false;
  useEffect(() => {
    if (!gated || controlled !== undefined) return;
    const read = () => setChoice(readConsent(storageKey));
    read();
    // Another tab accepting or withdrawing counts here too.
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === storageKey) read();
    };
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }, [gated, controlled, storageKey]);
  const granted = choice === false ? false : (controlled ?? choice);
  const consented = !gated || granted === true;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [forgets, setForgets] = useState(0);
  const setConsent = useCallback(
    (given: boolean) => {
      // Remembered only once given, and only when the host does not decide (`granted`).
      if (given && optionsRef.current?.granted === undefined) rememberConsent(storageKey);
      setChoice(given);
      if (!given) setForgets((count) => count + 1);
      optionsRef.current?.onChange?.(given);
    },
    [storageKey],
  );
  useForgetOnWithdrawal(consented, forgets, domain, storageKey, storage);
  // Withdrawing from the panel's menu is offered where the host does not decide it.
  const withdrawable = !!options && options.granted === undefined;
  return { options, granted, consented, setConsent, withdrawable };
}

/** Withdrawn: once the panel has unmounted (it saves on its way out), everything the widget stored goes. */
function useForgetOnWithdrawal(
  consented: boolean,
  forgets: number,
  domain: string,
  storageKey: string,
  storage: unknown,
): void {
  const before = useRef({ consented, forgets });
  useEffect(() => {
    const was = before.current;
    before.current = { consented, forgets };
    if ((was.consented && !consented) || was.forgets !== forgets) {
      consentView().then(
        (view) => view.forgetStored(domain, storageKey, storage),
        (cause: unknown) => console.error('[docs-assistant] could not delete what was stored', cause),
      );
      forgetPanelMemory(domain);
    }
  }, [consented, forgets, domain, storageKey, storage]);
}
