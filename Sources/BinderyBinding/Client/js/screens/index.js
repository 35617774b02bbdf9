// screens/index.js — the few screens that need behaviour beyond the generic binder, by route name.
// Every screen, listed here or not, is mounted the same way (app.js): its template tpl-<name>,
// bound to its view model; a module here then gets mount(root, ctx, binder) and may return a
// function that undoes what it did. Static imports: a screen can't be left half-loaded.

import * as home from './home.js';
import { loadsWhenEmpty } from './loads.js';
import * as photo from './photo.js';
import * as recipes from './recipes.js';

export const SCREENS = {
  home, list: loadsWhenEmpty('items'), courses: loadsWhenEmpty('courses'), photo,
  recipes: recipes.list, recipe: recipes.detail, recipeEdit: recipes.edit, recipeTimer: recipes.timer,
};
