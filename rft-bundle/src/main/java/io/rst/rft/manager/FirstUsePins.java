/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.MoreExecutors;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201._switch.config.AgentTlsFirstUseBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a fingerprint trusted on first use into the switch's configuration: its
 * {@code agent-tls-fingerprint}, with {@code agent-tls-first-use} saying which and when, merged
 * into the switch's entry of the configuration datastore (persisted, shown by RESTCONF; an
 * operator removes {@code agent-tls-fingerprint} to let the controller pin afresh). Only a switch
 * that is still configured and still has no fingerprint is written: one removed meanwhile is not
 * brought back, and an operator's own pin wins.
 */
final class FirstUsePins implements AgentLinks.Pinner {
    private static final Logger LOG = LoggerFactory.getLogger(FirstUsePins.class);

    private final DataBroker broker;

    FirstUsePins(final DataBroker broker) {
        this.broker = broker;
    }

    @Override
    public void pin(final String nodeId, final String fingerprint, final String pinned) {
        final var path = StatusWriter.switchPath(nodeId);
        final var tx = broker.newReadWriteTransaction();
        Futures.addCallback(tx.read(LogicalDatastoreType.CONFIGURATION, path), new FutureCallback<>() {
            @Override
            public void onSuccess(final java.util.Optional<org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table
                    .rev261201.rft.Switch> current) {
                if (current.isEmpty() || current.orElseThrow().getAgentTlsFingerprint() != null) {
                    tx.cancel();
                    LOG.info("RFT switch {}: not pinning {} on first use: the switch {}", nodeId,
                        AgentLinks.display(fingerprint), current.isEmpty() ? "is no longer configured"
                            : "has an agent-tls-fingerprint already");
                    return;
                }
                final String shown = AgentLinks.display(fingerprint);
                tx.merge(LogicalDatastoreType.CONFIGURATION, path, new SwitchBuilder().setNodeId(new NodeId(nodeId))
                    .setAgentTlsFingerprint(shown).setAgentTlsFirstUse(new AgentTlsFirstUseBuilder()
                        .setFingerprint(shown).setPinned(new DateAndTime(pinned)).build()).build());
                Futures.addCallback(tx.commit(), new FutureCallback<CommitInfo>() {
                    @Override
                    public void onSuccess(final CommitInfo info) {
                        LOG.info("RFT switch {}: its agent's certificate {} trusted on first use and pinned"
                            + " (agent-tls-fingerprint)", nodeId, shown);
                    }

                    @Override
                    public void onFailure(final Throwable failure) {
                        LOG.warn("RFT switch {}: cannot pin {} (trusted on first use) in its configuration", nodeId,
                            shown, failure);
                    }
                }, MoreExecutors.directExecutor());
            }

            @Override
            public void onFailure(final Throwable failure) {
                tx.cancel();
                LOG.warn("RFT switch {}: cannot read its configuration to pin {}", nodeId,
                    AgentLinks.display(fingerprint), failure);
            }
        }, MoreExecutors.directExecutor());
    }
}
