import { Menu, MenuItem } from '@mui/material';

/**
 * The header's pop-up menus. They load on first use, so the menu and modal code is not part of what
 * every page loads first.
 */
export interface MenuChoice {
  key: string;
  label: string;
  lang?: string;
}

export function ChoiceMenu({
  id,
  anchor,
  choices,
  current,
  onChoose,
  onClose,
}: {
  id: string;
  anchor: HTMLElement;
  choices: MenuChoice[];
  current: string;
  onChoose: (key: string) => void;
  onClose: () => void;
}) {
  return (
    <Menu id={id} anchorEl={anchor} open onClose={onClose}>
      {choices.map(({ key, label, lang }) => (
        <MenuItem
          key={key}
          lang={lang}
          role="menuitemradio"
          aria-checked={key === current}
          selected={key === current}
          onClick={() => {
            onClose();
            onChoose(key);
          }}
        >
          {label}
        </MenuItem>
      ))}
    </Menu>
  );
}
