import IAPCore

/// The two full screens, login and the product list, and the HUD over the list.
extension StateView {
    var login: LoginBox {
        LoginBox(prompt: Text.loginPrompt(lang), text: state.loginText, hint: (state.loginRefused ? Text.loginRule : Text.loginHint)(lang),
                 hintStyle: state.loginRefused ? theme.bad : theme.dimmed, theme: theme)
    }

    var productList: ProductList {
        // With the backend down and nothing read from it yet, 0 would be a guess: say it is unknown; before its first
        // answer (a launch's first frame, a slow backend), that it is not read yet.
        let unknown = state.faults.contains(.backendDown) && state.account == Account()
        let notRead = state.session.map { $0.accountReading == nil } ?? false
        let balance = unknown ? Text.balanceUnknown(lang) : notRead ? Text.balanceNotRead(lang) : balanceLine
        let content: ProductList.Content
        switch state.productsStatus {
        case .loading:
            content = .loading
        case .empty, .failed:
            content = .unavailable(reason: state.productsStatus == .failed ? Text.productsFailed(lang) : Text.noProducts(lang),
                                   again: Text.productsAskAgain(lang), byIdentifier: Text.buyByIdentifier(lang),
                                   identifiers: state.productIdentifiers, selection: state.selection)
        case .loaded:
            content = .rows(state.products.map(row), selection: state.selection)
        }
        return ProductList(heading: Text.products(lang), balance: balance, content: content, ownedMark: Text.owned(lang), theme: theme)
    }

    private func row(_ product: Product) -> ProductList.Row {
        // A subscription the user has (or had) says where it stands instead of what it is.
        let status = state.subscriptionStatus(of: product.id)
        // What the paywall offers besides the regular price, said where the status goes (the price column keeps the
        // regular price, as for the intro offer, so that the names keep their room): the promotional offer chosen with
        // `o`; in StoreKit 2 the win-back offer the store says a churned subscriber may take, or the 12-month plan.
        let offer = state.offerChoices[product.id].flatMap { product.subscription?.promotionalOffer($0) }
        let winBack = offer == nil ? state.winBackOffer(for: product) : nil
        let commitment = state.storeKit == .two && state.monthlyPlanChoices.contains(product.id) ? product.subscription?.monthlyCommitment : nil
        let offered: String? = offer.map { "\(Text.offerChosen(lang)) \($0.id): \(offerPrice($0))" }
            ?? winBack.map { "\(Text.winBackOffer(lang)): \(offerPrice($0))" }
            ?? commitment.map { "\(Text.monthlyPlan(lang)): \($0.monthly(lang)) (\($0.totalPrice[lang]))" }
        // An Apple ID new to the group is offered the intro offer; one that had the group's, or any of it, is not.
        let intro: String? = status == nil ? state.introOffer(for: product)?.line[lang] : nil
        let style: Style? = if offered != nil { theme.good } else if let status { statusStyle(status) } else { intro == nil ? nil : theme.good }
        return ProductList.Row(title: product.title[lang], kind: product.kind.label(lang), summary: product.summary[lang],
                               status: offered ?? status?.line(lang, now: state.now) ?? intro, statusStyle: style,
                               price: product.price[lang], period: product.subscription?.period.perPrice[lang] ?? "",
                               owned: !product.kind.isConsumable && state.account.owned.contains(product.id),
                               ownedAs: state.account.familyShared.contains(product.id) ? Text.familyShared(lang) : nil)
    }

    /// Service on and renewing reads as good news; on but ending or unpaid as something to watch; over, quietly.
    func statusStyle(_ status: SubscriptionStatus) -> Style {
        switch status.state {
        case .active, .trial: theme.good
        case .cancelled, .gracePeriod: theme.waiting
        case .billingRetry: theme.bad
        case .expired, .revoked: theme.dimmed
        }
    }

    /// "Balance 60 coins", then the units held of each consumable that grants one unit of itself (a .storekit product
    /// with no amount mapped): "· Fuel ×3". A catalog that sells only such products shows only its units. While the
    /// product request has failed, the units held are named by the identifiers the app is built with.
    var balanceLine: String {
        let units = state.shopIdentifiers.compactMap { id -> String? in
            let product = state.product(id)
            guard product?.grantsUnit ?? true, let held = state.account.units[id] else { return nil }
            return "\(product?.title[lang] ?? id) ×\(held)"
        }
        let sellsCoins = state.products.contains { $0.kind.isConsumable && $0.coins > 0 } || state.account.coins > 0
        let coins = sellsCoins || units.isEmpty ? ["\(state.account.coins) \(Text.coins(lang))"] : []
        return "\(Text.balance(lang)) " + (coins + units).joined(separator: " · ")
    }

    var loading: LoadingBox {
        LoadingBox(text: Text.loading(lang), theme: theme)
    }

    var hud: HUDBox? {
        guard let hud = state.hud else { return nil }
        return HUDBox(headline: headline(hud), lines: detailLines(hud), footer: footer(hud.kind), headlineStyle: textStyle(hud.kind),
                      frameStyle: frameStyle(hud.kind), theme: theme)
    }

    private func headline(_ hud: HUD) -> String {
        let kind = hud.kind
        switch kind {
        case .success, .codeRedeemed: return "✓ " + kind.text(lang)
        case .restored: return "✓ " + kind.text(lang).replacingOccurrences(of: "{n}", with: "\(hud.count ?? 1)")
        case .failed, .verifyFailed, .disabled, .jailbroken, .restoreFailed, .offerRefused: return "✗ " + kind.text(lang)
        default: return kind.text(lang)
        }
    }

    private func detailLines(_ hud: HUD) -> [String] {
        // A restore of the whole account names no one product; nor does an offer code the App Store refused.
        if hud.productId == nil, let error = hud.error, error.refusesCode {
            let said: Text = switch error {
            case .offerCodeUsed: .offerCodeUsed
            case .oneTimeCodeUsed: .oneTimeCodeUsed
            case .offerCodeLimitReached: .offerCodeLimitReached
            case .offerCodeIneligible: .offerCodeIneligible
            default: .offerCodeInvalid
            }
            return [said(lang)]
        }
        if hud.kind == .codeRedeemed { return hud.transactionId == nil ? [Text.codeRedeemedNextRenewal(lang)] : [] }
        guard hud.productId != nil else { return [] }
        if hud.kind == .success, hud.charge?.free == true, hud.charge?.offerId != nil {
            return [productTitle(hud.productId), Text.offerNextRenewal(lang)]
        }
        // A restore costs nothing; an offer code's month costs what the code says, which the app is not told.
        let unpriced = hud.kind.isFreeSheet || hud.kind == .restored || hud.charge?.redeemed == true
        var lines = [unpriced ? productTitle(hud.productId) : productLine(hud.productId, charge: hud.charge)]
        switch hud.kind {
        case .offerRefused:
            let why: Text? = switch hud.error {
            case .invalidSignature?: .offerInvalidSignature
            case .invalidOfferIdentifier?: .offerInvalidIdentifier
            case .invalidOfferPrice?: .offerInvalidPrice
            case .ineligibleForOffer?: state.product(hud.productId ?? "")?.subscription?.winBackOffer(hud.charge?.offerId ?? "") != nil ? .winBackIneligible : .offerIneligible
            default: nil
            }
            if let name = hud.error?.appleName(in: state.storeKit), let why { lines += [name, why(lang)] } else { lines.append(Text.offerNotSigned(lang)) }
        case .failed where hud.error == .alreadyPending:
            // StoreKit sells nothing again while the product's last transaction waits to be finished (another app
            // user's, maybe, waiting in their keychain).
            lines.append(Text.alreadyPending(lang))
        case .confirming:
            if let id = hud.transactionId, let order = state.orders[id], order.attempts > 0 {
                var retry = "\(Text.retryCount(lang)) \(order.attempts)"
                switch state.nextRetry(for: order) {
                case let .at(next) where next > state.now: retry += " · " + nextRetryWords(at: next)
                case .trigger: retry += " · " + Text.retryOnTrigger(lang)
                case .at, .putOff, .nextSession, .asked: break
                }
                lines.append(retry)
            }
        case .otherAccount where state.isAnotherAccountsSubscription(hud):
            let said: Text = switch state.appleIdCharge(hud) {
            case .charged: .chargedForAnotherAccount
            case .freePeriod: .freePeriodForAnotherAccount
            case .codeRedeemed: .codeRedeemedForAnotherAccount
            }
            lines.append(said(lang))
        case .planChanged:
            // The line above is what the renewal will charge.
            if state.isAnotherAccountsPlanChange(hud) { lines.append(Text.planOfAnotherAccount(lang)) }
            lines.append(Text.nothingChargedNow(lang))
        case .success where state.product(hud.productId ?? "")?.kind.isConsumable == true:
            // What a consumable changed; a product owned or subscribed to shows as such on the list behind.
            lines.append(balanceLine)
        default:
            break
        }
        return lines
    }

    private func footer(_ kind: HUD.Kind) -> String {
        switch kind {
        case .purchasing, .alreadyOwned, .alreadySubscribed: Text.escCancel(lang)
        case .confirming: Text.inBackground(lang)
        case .restoring: Text.restoreInBackground(lang)
        default: Text.escClose(lang)
        }
    }

    private func textStyle(_ kind: HUD.Kind) -> Style {
        switch kind {
        case .purchasing, .alreadyOwned, .alreadySubscribed, .confirming, .deferred, .backgrounded, .restoring, .appleIdChanged: theme.waiting
        case .success, .restored, .planChanged, .codeRedeemed: theme.good
        case .nothingToRestore, .otherAccount, .familyRevoked: theme.plain
        case .failed, .cancelled, .disabled, .verifyFailed, .jailbroken, .restoreFailed, .offerRefused: theme.bad
        }
    }

    private func frameStyle(_ kind: HUD.Kind) -> Style {
        switch kind {
        case .success, .restored, .planChanged, .codeRedeemed: theme.good
        case .failed, .verifyFailed, .disabled, .jailbroken, .restoreFailed, .offerRefused: theme.bad
        default: theme.frame
        }
    }
}
