/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LabMainTest {
    @Test
    void agentsGetTheirHeapFixedAndTouchedUnlessTheOptionsSayOtherwise() {
        assertEquals(List.of("-Xmx640m", "-Xms640m", "-XX:+AlwaysPreTouch"), LabMain.agentJvmOptions("-Xmx640m"));
        assertEquals(List.of("-Xmx1g", "-Xlog:gc:file=/tmp/a.log", "-Xms1g", "-XX:+AlwaysPreTouch"),
            LabMain.agentJvmOptions(" -Xmx1g,-Xlog:gc:file=/tmp/a.log "));
        assertEquals(List.of("-Xms64m", "-Xmx128m"), LabMain.agentJvmOptions("-Xms64m,-Xmx128m"));
        assertEquals(List.of("-Xmx128m", "-XX:-AlwaysPreTouch", "-Xms128m"),
            LabMain.agentJvmOptions("-Xmx128m -XX:-AlwaysPreTouch"));
        assertEquals(List.of("-XX:+UseSerialGC"), LabMain.agentJvmOptions("-XX:+UseSerialGC"));
    }
}
