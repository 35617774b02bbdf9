import Bindery
import BinderyUpstream

/// What the list keeps across restarts: its input, the spots and hotels of its last successful
/// load (the cells are rebuilt from them, so item URLs keep working), and the last load's error.
extension ListViewModel {
    /// Saves and restores `currentCityId`, the last load and its error.
    static let persistence = PersistedState<ListViewModel>(
        save: { model in
            [
                "currentCityId": .int(model.currentCityId),
                "load": model.lastLoad.map { load in
                    ["spots": .array(load.spots.map(\.stored)), "hotels": .array(load.hotels.map(\.stored))]
                } ?? .null,
                "error": model.error?.json ?? .null,
            ]
        },
        restore: { model, state in
            let members = state.objectValue ?? [:]
            if let id = members["currentCityId"]?.intValue, model.knowsCity(id) { model.currentCityId = id }
            if let load = members["load"]?.objectValue {
                let spots = load["spots"]?.arrayValue?.compactMap(ScenicSpot.init(stored:)) ?? []
                let hotels = load["hotels"]?.arrayValue?.compactMap(Hotel.init(stored:)) ?? []
                model.install(spots: spots, hotels: hotels)
            } else {
                model.clearItems()
            }
            model.restoreError(members["error"].flatMap(ExecutionFailure.init(stored:)))
        }
    )
}

extension ExecutionFailure {
    /// A failure from its ``json``.
    init?(stored json: JSONValue) {
        guard let members = json.objectValue, let message = members["message"]?.stringValue,
            let origin = members["origin"]?.stringValue.flatMap(Origin.init(rawValue:))
        else { return nil }
        self.init(message: message, code: members["code"]?.intValue, origin: origin)
    }
}

extension ScenicSpot {
    /// The spot as the list stores it.
    var stored: JSONValue {
        [
            "id": .string(id), "name": .string(name), "cityId": .int(cityId), "cityName": .string(cityName),
            "areaName": .string(areaName), "frontImageURL": .string(frontImageURL),
            "lowestPrice": .double(lowestPrice), "campaignTag": .string(campaignTag),
        ]
    }

    /// A spot from what ``stored`` wrote.
    init?(stored json: JSONValue) {
        guard let m = json.objectValue, let id = m["id"]?.stringValue, let name = m["name"]?.stringValue,
            let cityId = m["cityId"]?.intValue, let cityName = m["cityName"]?.stringValue,
            let areaName = m["areaName"]?.stringValue, let image = m["frontImageURL"]?.stringValue,
            let price = m["lowestPrice"]?.doubleValue, let tag = m["campaignTag"]?.stringValue
        else { return nil }
        self.init(
            id: id, name: name, cityId: cityId, cityName: cityName, areaName: areaName, frontImageURL: image,
            lowestPrice: price, campaignTag: tag
        )
    }
}

extension Hotel {
    /// The hotel as the list stores it.
    var stored: JSONValue {
        [
            "id": .string(id), "name": .string(name), "cityId": .int(cityId), "cityName": .string(cityName),
            "frontImageURL": .string(frontImageURL), "poiAttrTagList": .array(poiAttrTagList.map(JSONValue.string)),
        ]
    }

    /// A hotel from what ``stored`` wrote.
    init?(stored json: JSONValue) {
        guard let m = json.objectValue, let id = m["id"]?.stringValue, let name = m["name"]?.stringValue,
            let cityId = m["cityId"]?.intValue, let cityName = m["cityName"]?.stringValue,
            let image = m["frontImageURL"]?.stringValue, let tags = m["poiAttrTagList"]?.arrayValue
        else { return nil }
        self.init(
            id: id, name: name, cityId: cityId, cityName: cityName, frontImageURL: image,
            poiAttrTagList: tags.compactMap(\.stringValue)
        )
    }
}
