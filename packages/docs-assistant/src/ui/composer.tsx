import {
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  memo,
  type RefObject,
  useId,
  useLayoutEffect,
  useRef,
} from 'react';
import { type CoreLabels, useLabels } from '../labels/index.js';
import { ICONS } from './panel-icons.js';
import { Icon, useShellFrame } from './shell-frame.js';

export interface ComposerProps {
  value: string;
  onValueChange: (value: string) => void;
  onSubmit: (question: string) => void;
  onStop: () => void;
  /** An answer is on its way: the Stop button replaces Send. */
  busy: boolean;
  /** Sending is impossible (config error): the Send button stays disabled. */
  disabled?: boolean;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  className?: string;
  inputClassName?: string;
  /**
   * Files picked, pasted or dropped (the `attachments` prop): when given, an attach button and its
   * file picker show, and pasting or dropping files hands them here instead of into the text.
   */
  onFiles?: (files: File[]) => void;
}

/**
 * The question box: Enter sends, Shift+Enter starts a new line, an IME composition is left alone.
 * Memoised: the panel re-renders once per frame while an answer streams, the box only when its props
 * change (give it callbacks that keep their identity).
 */
export const Composer = memo(function Composer(props: ComposerProps) {
  const { value, onValueChange, onSubmit, onStop, busy, disabled, inputRef, onFiles } = props;
  const labels = useLabels();
  const { visuallyHidden } = useShellFrame();
  const inputId = useId();
  const canSend = !busy && !disabled && value.trim().length > 0;

  // Send and Stop take each other's place (and Send is disabled once the box is empty), so the
  // button that was pressed goes away: focus returns to the question box, where Escape still works.
  const focusInput = () => inputRef.current?.focus();
  const submit = () => {
    if (!canSend) return;
    onSubmit(value.trim());
    focusInput();
  };

  const actionFocusProps = useActionFocus(busy, focusInput);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // keyCode 229 is the Enter that confirms an IME candidate in browsers that end the composition first.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || event.keyCode === 229)
      return;
    event.preventDefault();
    submit();
  };

  return (
    <form
      data-docs-assistant="composer"
      className={props.className}
      {...dropHandlers(onFiles)}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={inputId} style={visuallyHidden}>
        {labels.inputLabel}
      </label>
      <textarea
        ref={inputRef}
        id={inputId}
        data-docs-assistant="input"
        className={props.inputClassName}
        rows={1}
        value={value}
        placeholder={labels.inputPlaceholder}
        onChange={(event) => onValueChange(event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={(event) => {
          // Pasted text stays text; pasted files (a screenshot) are attached.
          if (!onFiles || !event.clipboardData.files.length) return;
          event.preventDefault();
          onFiles(Array.from(event.clipboardData.files));
        }}
      />
      {onFiles ? <AttachButton labels={labels} onFiles={onFiles} /> : null}
      <ComposerAction
        busy={busy}
        canSend={canSend}
        labels={labels}
        onStop={() => {
          onStop();
          focusInput();
        }}
        focusProps={actionFocusProps}
      />
    </form>
  );
});

/** Keeps focus in the box when Send and Stop swap: the props for both buttons, to track which had focus. */
function useActionFocus(busy: boolean, focusInput: () => void) {
  // The button that had focus when the answer started or ended by itself (Stop when the answer
  // finishes): React may reuse its element for the other button, or the browser drop focus to the
  // page. A button left some other way is forgotten once it is still there after its blur.
  const focusedAction = useRef<HTMLButtonElement | null>(null);
  const actionFocusProps = {
    onFocus: (event: { currentTarget: HTMLButtonElement }) => {
      focusedAction.current = event.currentTarget;
    },
    onBlur: (event: { currentTarget: HTMLButtonElement }) => {
      const button = event.currentTarget;
      queueMicrotask(() => {
        if (button.isConnected && focusedAction.current === button) focusedAction.current = null;
      });
    },
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the buttons swap.
  useLayoutEffect(() => {
    const button = focusedAction.current;
    if (!button) return;
    focusedAction.current = null;
    const active = document.activeElement;
    if (!active || active === document.body || active === button) focusInput();
  }, [busy]);
  return actionFocusProps;
}

/** The attach button: a file picker behind the paper-clip icon. */
function AttachButton({ labels, onFiles }: { labels: CoreLabels; onFiles: (files: File[]) => void }) {
  const { visuallyHidden } = useShellFrame();
  return (
    <label data-action="attach" title={labels.attachFiles ?? 'Attach files'}>
      <input
        type="file"
        multiple
        aria-label={labels.attachFiles ?? 'Attach files'}
        style={visuallyHidden}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Cleared, so the same file can be picked again after it was removed.
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <Icon path={ICONS.attach} />
    </label>
  );
}

/** Stop while an answer is on its way, else Send (one place: the two swap). */
function ComposerAction({
  busy,
  canSend,
  labels,
  onStop,
  focusProps,
}: {
  busy: boolean;
  canSend: boolean;
  labels: CoreLabels;
  onStop: () => void;
  focusProps: ReturnType<typeof useActionFocus>;
}) {
  return busy ? (
    <button
      type="button"
      data-action="stop"
      aria-label={labels.stop}
      title={labels.stop}
      onClick={onStop}
      {...focusProps}
    >
      <Icon path={ICONS.stop} />
    </button>
  ) : (
    <button
      type="submit"
      data-action="send"
      aria-label={labels.send}
      title={labels.send}
      disabled={!canSend}
      {...focusProps}
    >
      <Icon path={ICONS.send} />
    </button>
  );
}

/** The form's drag-over and drop handlers: dropped files go to `onFiles` (without it, nothing is taken). */
function dropHandlers(onFiles: ((files: File[]) => void) | undefined) {
  return {
    onDragOver: (event: DragEvent) => {
      if (onFiles && event.dataTransfer.types.includes('Files')) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      if (!onFiles || !event.dataTransfer.files.length) return;
      event.preventDefault();
      onFiles(Array.from(event.dataTransfer.files));
    },
  };
}
