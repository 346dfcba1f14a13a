import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Object3D } from 'three';
import type { ModelFormat } from '@vitrine/contract/download';
import { fetchFile } from '../../lib/apiClient.ts';
import { useTranslation } from '../../lib/translate.tsx';
import type { ModelScene } from './modelScene.ts';
import { viewKeyAction } from './orbit.ts';

type Status = 'loading' | 'ready' | 'failed';

/**
 * A 3D model to turn and zoom (issue #27), over `children`, the server's picture of it, which
 * shows while the model loads and stays when it cannot be shown. The model's file comes from its
 * signed URL, fetched as a blob, while three.js (a chunk of its own, loaded only here) arrives.
 */
export function ModelViewer({
  model,
  label,
  children,
}: {
  model: { url: string; format: ModelFormat };
  label: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const frameRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const sceneRef = useRef<ModelScene | undefined>(undefined);
  const [status, setStatus] = useState<Status>('loading');
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const hintId = useId();

  useEffect(() => {
    const canvas = canvasRef.current;
    const frame = frameRef.current;
    if (!canvas || !frame) return;
    const abort = new AbortController();
    setStatus('loading');
    const load = async () => {
      let object: Object3D | undefined;
      // three.js loads while the file does; should both fail, the file's failure is the one told.
      const three = Promise.all([import('./modelFiles.ts'), import('./modelScene.ts')]);
      three.catch(() => undefined);
      try {
        const file = await fetchFile(
          model.url,
          (loaded, total) => setProgress(total ? (loaded / total) * 100 : undefined),
          abort.signal,
        );
        const [{ parseModel }, { showModel, disposeModel }] = await three;
        object = await parseModel(model.format, await file.blob.arrayBuffer());
        if (abort.signal.aborted) return disposeModel(object);
        sceneRef.current = showModel(canvas, frame, object);
        setStatus('ready');
      } catch (error) {
        // A model was read only once three.js had come.
        if (object) (await three)[1].disposeModel(object);
        // Leaving the page while the model loads is no failure to tell anyone about.
        if (abort.signal.aborted) return;
        setStatus('failed');
        console.warn('The 3D model could not be shown:', error);
      }
    };
    void load();
    return () => {
      abort.abort();
      sceneRef.current?.dispose();
      sceneRef.current = undefined;
    };
  }, [model.url, model.format]);

  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const action = viewKeyAction(event.key);
    const scene = sceneRef.current;
    if (!action || !scene || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    if (action.kind === 'reset') scene.reset();
    else scene.move(action);
  };

  const ready = status === 'ready';
  return (
    <Box>
      <Box ref={frameRef} sx={{ position: 'relative' }}>
        {/* The picture keeps the frame's size, so nothing moves when the model replaces it. */}
        <Box sx={{ visibility: ready ? 'hidden' : 'visible' }}>{children}</Box>
        {status === 'loading' && (
          <LinearProgress
            aria-label={t('views.asset.model.loading')}
            variant={progress === undefined ? 'indeterminate' : 'determinate'}
            value={progress}
            sx={{ position: 'absolute', left: 0, right: 0, bottom: 0 }}
          />
        )}
        <Box
          component="canvas"
          ref={canvasRef}
          role="application"
          aria-label={label}
          aria-describedby={hintId}
          tabIndex={ready ? 0 : -1}
          onKeyDown={onKeyDown}
          sx={{
            display: ready ? 'block' : 'none',
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            cursor: 'grab',
            '&:active': { cursor: 'grabbing' },
            '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: '-3px' },
          }}
        />
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 1 }}>
        {status === 'failed' ? (
          <Typography role="status" variant="body2" color="text.secondary">
            {t('views.asset.model.failed')}
          </Typography>
        ) : (
          <Typography id={hintId} variant="body2" color="text.secondary">
            {t('views.asset.model.hint')}
          </Typography>
        )}
        {status !== 'failed' && (
          <Button disabled={!ready} onClick={() => sceneRef.current?.reset()} sx={{ flexShrink: 0 }}>
            {t('views.asset.model.reset')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
