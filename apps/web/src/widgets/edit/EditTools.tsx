import { Button, IconButton, SvgIcon, type SvgIconProps } from '@mui/material';
import { IconTooltip } from '../../components/IconTooltip.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DeleteIcon } from '../../components/icons.tsx';
import { TextButton } from '../../components/TextButton.tsx';
import { EditDialog } from './EditDialog.tsx';
import { binWithNotice } from './editNotices.ts';

/** Material's "edit" pencil; here rather than in the shell's icons, so only editors load it. */
function EditIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M3 17.25V21h3.75L17.81 9.94l-3.75-3.75zM20.71 7.04a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75z" />
    </SvgIcon>
  );
}

/** Edit and "Move to bin" with its question, for the ids given; `left` runs once they are in the bin. */
function useEditActions(ids: string[], left?: () => void) {
  const client = useQueryClient();
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);
  const dialogs = (
    <>
      {editing && <EditDialog ids={ids} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        open={asking}
        text={t('edit.bin.confirm', { count: ids.length })}
        onConfirm={() => {
          setAsking(false);
          void binWithNotice(client, ids, left);
        }}
        onCancel={() => setAsking(false)}
      />
    </>
  );
  return { edit: () => setEditing(true), bin: () => setAsking(true), dialogs };
}

/**
 * The editor's actions on one asset: icon buttons beside download and share on the asset page, text
 * buttons in the info panel.
 */
export function AssetEditTools({ id, compact, onBinned }: { id: string; compact: boolean; onBinned?: () => void }) {
  const { t } = useTranslation();
  const actions = useEditActions([id], onBinned);
  const editLabel = t('edit.open');
  const binLabel = t('edit.bin.move');
  return compact ? (
    <>
      <Button size="small" startIcon={<EditIcon />} onClick={actions.edit}>
        {editLabel}
      </Button>
      <Button size="small" startIcon={<DeleteIcon />} onClick={actions.bin}>
        {binLabel}
      </Button>
      {actions.dialogs}
    </>
  ) : (
    <>
      <IconTooltip title={editLabel}>
        <IconButton aria-label={editLabel} onClick={actions.edit}>
          <EditIcon />
        </IconButton>
      </IconTooltip>
      <IconTooltip title={binLabel}>
        <IconButton aria-label={binLabel} onClick={actions.bin}>
          <DeleteIcon />
        </IconButton>
      </IconTooltip>
      {actions.dialogs}
    </>
  );
}

/** The editor's actions on the selected results, in the bar above them. */
export function SelectionEditTools({ ids, onBinned }: { ids: string[]; onBinned?: () => void }) {
  const { t } = useTranslation();
  const actions = useEditActions(ids, onBinned);
  return (
    <>
      <TextButton small onClick={actions.edit}>
        {t('edit.open_selection')}
      </TextButton>
      <TextButton small onClick={actions.bin}>
        {t('edit.bin.move_selection')}
      </TextButton>
      {actions.dialogs}
    </>
  );
}
