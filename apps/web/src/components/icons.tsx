import { SvgIcon, type SvgIconProps } from '@mui/material';
import * as paths from './iconPaths.ts';

/** The few Material icons the shell needs, inlined so no icon package weighs on the bundle. */
const icon = (path: string) =>
  Object.assign(
    function Icon(props: SvgIconProps) {
      return (
        <SvgIcon {...props}>
          <path d={path} />
        </SvgIcon>
      );
    },
    // The bare path, for places that draw many icons and keep MUI styling out (search results).
    { path },
  );

/** An icon as a plain SVG in the current colour: no styling work per icon. */
export function PlainIcon({ path, size = 20 }: { path: string; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} fill="currentColor" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  );
}

export const MenuIcon = icon(paths.menuPath);
export const ChevronLeftIcon = icon(paths.chevronLeftPath);
export const HomeIcon = icon(paths.homePath);
export const SearchIcon = icon(paths.searchPath);
export const BookmarkIcon = icon(paths.bookmarkPath);
export const InfoIcon = icon(paths.infoPath);
export const LanguageIcon = icon(paths.languagePath);
export const PaletteIcon = icon(paths.palettePath);
export const AccountIcon = icon(paths.accountPath);
export const LoginIcon = icon(paths.loginPath);
export const LogoutIcon = icon(paths.logoutPath);
export const SettingsIcon = icon(paths.settingsPath);
export const ArrowBackIcon = icon(paths.arrowBackPath);
export const DownloadIcon = icon(paths.downloadPath);
export const ShareIcon = icon(paths.sharePath);
export const NavigateNextIcon = icon(paths.navigateNextPath);
export const OpenInNewIcon = icon(paths.openInNewPath);
export const MoreVertIcon = icon(paths.moreVertPath);
export const CloseIcon = icon(paths.closePath);
export const FilterIcon = icon(paths.filterPath);
export const ViewAgendaIcon = icon(paths.viewAgendaPath);
export const ViewModuleIcon = icon(paths.viewModulePath);
export const ViewListIcon = icon(paths.viewListPath);
export const SortIcon = icon(paths.sortPath);
export const BookmarkBorderIcon = icon(paths.bookmarkBorderPath);
export const DeleteIcon = icon(paths.deletePath);
export const UploadIcon = icon(paths.uploadPath);
export const FolderIcon = icon(paths.folderPath);
export const PauseIcon = icon(paths.pausePath);
export const PlayIcon = icon(paths.playPath);
export const DuplicatesIcon = icon(paths.duplicatesPath);
