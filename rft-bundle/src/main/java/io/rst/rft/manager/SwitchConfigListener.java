/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import io.rst.rft.wire.TlsFiles;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.binding.api.DataObjectDeleted;
import org.opendaylight.mdsal.binding.api.DataObjectModified;
import org.opendaylight.mdsal.binding.api.DataObjectWritten;
import org.opendaylight.mdsal.binding.api.DataTreeChangeListener;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;

/**
 * Turns configuration changes of {@code /rft/switch} into tracker calls; never blocks.
 */
final class SwitchConfigListener implements DataTreeChangeListener<Switch> {
    private final AgentStatusTracker tracker;
    private final AgentLinks links;

    SwitchConfigListener(final AgentStatusTracker tracker, final AgentLinks links) {
        this.tracker = tracker;
        this.links = links;
    }

    @Override
    public void onDataTreeChanged(final List<DataTreeModification<Switch>> changes) {
        for (var change : changes) {
            final var root = change.getRootNode();
            switch (root) {
                case DataObjectWritten<Switch> written -> configured(toConfig(written.dataAfter()));
                case DataObjectModified<Switch> modified -> configured(toConfig(modified.dataAfter()));
                case DataObjectDeleted<Switch> deleted -> {
                    final var nodeId = root.coerceKeyStep(Switch.class).key().getNodeId().getValue();
                    tracker.removed(nodeId);
                    links.remove(nodeId);
                }
            }
        }
    }

    private void configured(final SwitchConfig config) {
        // the links first: the tracker's first probe must already use the switch's transport
        links.configure(config);
        tracker.configured(config);
    }

    static SwitchConfig toConfig(final Switch sw) {
        final var address = sw.getAgentAddress();
        final var port = sw.getAgentPort();
        final var transport = sw.getAgentTransport();
        final var fingerprint = sw.getAgentTlsFingerprint();
        final Map<String, String> ports = new HashMap<>();
        sw.nonnullPortMap().values().forEach(p -> ports.put(p.getInterface(), p.getTpId().getValue()));
        return new SwitchConfig(sw.getNodeId().getValue(), address == null ? null : address.stringValue(),
            port == null ? 4791 : port.getValue().toJava(), Boolean.TRUE.equals(sw.getEnabled()),
            transport == null ? AgentLinks.Transport.UNSET : switch (transport) {
                case Tls -> AgentLinks.Transport.TLS;
                case PlainHttp -> AgentLinks.Transport.PLAIN_HTTP;
            }, fingerprint == null ? null : TlsFiles.normalizeFingerprint(fingerprint), ports, firstUse(sw));
    }

    /** What the controller pinned on first use, when the configuration has all of it. */
    private static SwitchConfig.@Nullable FirstUse firstUse(final Switch sw) {
        final var firstUse = sw.getAgentTlsFirstUse();
        if (firstUse == null || firstUse.getFingerprint() == null || firstUse.getPinned() == null) {
            return null;
        }
        return new SwitchConfig.FirstUse(TlsFiles.normalizeFingerprint(firstUse.getFingerprint()),
            firstUse.getPinned().getValue());
    }
}
