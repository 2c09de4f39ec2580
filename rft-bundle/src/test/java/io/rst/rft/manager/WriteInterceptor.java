/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.google.common.util.concurrent.FluentFuture;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.mdsal.dom.api.DOMTransactionChain;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;

/**
 * A real broker whose transaction chains' commits that write sessions go through the test: a
 * transaction that puts a node at or under a switch's {@code session} list is one that writes
 * sessions (the agent's status is put too, beside them, and passes). Everything else passes through
 * to the real broker unchanged.
 */
final class WriteInterceptor {
    /** What a commit of a transaction that writes sessions answers instead. */
    @FunctionalInterface
    interface SessionCommit {
        /**
         * The commit's outcome as the writer sees it; {@code commit} commits the real transaction
         * (or the interceptor calls {@code real.cancel()} and answers something else).
         */
        FluentFuture<? extends CommitInfo> commit(DOMDataTreeWriteTransaction real,
            Supplier<FluentFuture<? extends CommitInfo>> commit);
    }

    private WriteInterceptor() {
        // factory
    }

    static DOMDataBroker of(final DOMDataBroker real, final SessionCommit sessionCommit) {
        return proxy(DOMDataBroker.class, real, (method, result) -> method.getName().endsWith("TransactionChain")
            ? proxy(DOMTransactionChain.class, (DOMTransactionChain) result, (chainMethod, tx) ->
                "newWriteOnlyTransaction".equals(chainMethod.getName())
                    ? intercept((DOMDataTreeWriteTransaction) tx, sessionCommit) : tx)
            : result);
    }

    private static DOMDataTreeWriteTransaction intercept(final DOMDataTreeWriteTransaction real,
            final SessionCommit sessionCommit) {
        final boolean[] writesSessions = {false};
        return (DOMDataTreeWriteTransaction) Proxy.newProxyInstance(WriteInterceptor.class.getClassLoader(),
            new Class<?>[] {DOMDataTreeWriteTransaction.class}, (proxy, method, args) -> {
                if ("put".equals(method.getName()) && args[1] instanceof YangInstanceIdentifier path
                        && path.getPathArguments().stream()
                            .anyMatch(arg -> "session".equals(arg.getNodeType().getLocalName()))) {
                    writesSessions[0] = true;
                }
                if ("commit".equals(method.getName()) && args == null && writesSessions[0]) {
                    return sessionCommit.commit(real, real::commit);
                }
                return invoke(method, real, args);
            });
    }

    /** What a method of {@code target} returned, for a proxy to pass on or replace. */
    @FunctionalInterface
    private interface Wrap {
        Object apply(Method method, Object result);
    }

    private static <T> T proxy(final Class<T> type, final T target, final Wrap wrap) {
        final InvocationHandler handler = (proxy, method, args) -> wrap.apply(method, invoke(method, target, args));
        return type.cast(Proxy.newProxyInstance(WriteInterceptor.class.getClassLoader(), new Class<?>[] {type},
            handler));
    }

    // a proxy throws what its target threw, whatever it is
    @SuppressWarnings({ "checkstyle:IllegalThrows", "checkstyle:AvoidHidingCauseException" })
    private static Object invoke(final Method method, final Object target, final Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
