/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { App } from './app';
import './style.css';

// The page lives at /rst/ on the RESTCONF port: RESTCONF is /rests on the same origin, and the page
// talks to nothing else.
new App(document.getElementById('app')!, '/rests').start();
