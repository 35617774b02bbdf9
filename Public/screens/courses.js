// The course list (seed 001's getData in viewDidLoad): loads when it appears with nothing to show.

import { loadsWhenEmpty } from '/js/seed/loads.js';

export const { mount } = loadsWhenEmpty('courses');
