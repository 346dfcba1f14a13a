import {
  Box,
  ClickAwayListener,
  Divider,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  MenuList,
  Paper,
  Popper,
  type SvgIconProps,
} from '@mui/material';
import type { ComponentType, ReactNode } from 'react';
import type { HeaderMenuState } from './headerMenu.ts';

/**
 * The header's pop-up menus. They load on first use, so the menu and modal code is not part of what
 * every page loads first.
 */
export interface MenuChoice {
  key: string;
  label: string;
  lang?: string;
}

/**
 * A header menu below its button. Opened by a click or key it is an ordinary modal menu with the
 * focus in it. Opened by the resting pointer it is a pop-up beside the page that takes no focus and
 * hides nothing from assistive technology, so moving the pointer away closes it again.
 */
function HeaderMenu({
  menu,
  labelledBy,
  children,
}: {
  menu: HeaderMenuState;
  labelledBy?: string;
  children: ReactNode;
}) {
  const listProps = { id: menu.id, ...(labelledBy ? { 'aria-labelledby': labelledBy } : {}) };
  if (menu.hover) {
    return (
      <Popper open anchorEl={menu.anchor} placement="bottom-end" sx={{ zIndex: 'modal' }}>
        {/* A click on the button itself turns the menu into a modal one instead (useHeaderMenu). */}
        <ClickAwayListener
          onClickAway={(e) => {
            if (!(e.target instanceof Node && menu.anchor.contains(e.target))) menu.onClose();
          }}
        >
          <Paper elevation={8} onPointerEnter={menu.onPointerEnter} onPointerLeave={menu.onPointerLeave}>
            <MenuList {...listProps}>{children}</MenuList>
          </Paper>
        </ClickAwayListener>
      </Popper>
    );
  }
  return (
    <Menu
      anchorEl={menu.anchor}
      open
      onClose={menu.onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ list: listProps }}
    >
      {children}
    </Menu>
  );
}

export function ChoiceMenu({
  menu,
  choices,
  current,
  onChoose,
}: {
  menu: HeaderMenuState;
  choices: MenuChoice[];
  current: string;
  onChoose: (key: string) => void;
}) {
  return (
    <HeaderMenu menu={menu}>
      {choices.map(({ key, label, lang }) => (
        <MenuItem
          key={key}
          lang={lang}
          role="menuitemradio"
          aria-checked={key === current}
          selected={key === current}
          onClick={() => {
            menu.onClose();
            onChoose(key);
          }}
        >
          {label}
        </MenuItem>
      ))}
    </HeaderMenu>
  );
}

export interface AccountAction {
  key: string;
  label: string;
  icon: ComponentType<SvgIconProps>;
  run: () => void;
}

/** The account menu: who is logged in, then the actions (admin area or portal, log out). */
export function AccountMenuList({
  menu,
  signedInAs,
  actions,
}: {
  menu: HeaderMenuState;
  signedInAs: string;
  actions: AccountAction[];
}) {
  return (
    <HeaderMenu menu={menu} labelledBy={`${menu.id}-title`}>
      <Box
        component="li"
        role="none"
        id={`${menu.id}-title`}
        sx={{ px: 2, py: 1, typography: 'body2', fontWeight: 600 }}
      >
        {signedInAs}
      </Box>
      <Divider />
      {actions.map(({ key, label, icon: Icon, run }) => (
        <MenuItem
          key={key}
          onClick={() => {
            menu.onClose();
            run();
          }}
        >
          <ListItemIcon>
            <Icon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={label} />
        </MenuItem>
      ))}
    </HeaderMenu>
  );
}
